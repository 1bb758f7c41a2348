import warnings


class PytestConfigWarning(UserWarning):
    pass


class Config:
    def issue_config_time_warning(self, warning, stacklevel):
        warnings.warn(warning, stacklevel=stacklevel)

    def _warn_already_imported(self, name):
        self.issue_config_time_warning(
            PytestConfigWarning(f"Module already imported so cannot be rewritten; {name}"),
            stacklevel=5,
        )

    def no_text(self, message):
        self.issue_config_time_warning(PytestConfigWarning(message), stacklevel=3)

    def keyword_message(self):
        self.issue_config_time_warning(warnings.WarningMessage(message="a keyword message"), 2)

    def not_a_class(self):
        self.issue_config_time_warning(make_warning("lowercase callables are not instances"), 2)
