class Fabric:
    """The fabric."""

    @staticmethod
    @other.decorator(1,
                     2)
    def setup(a, /, b=1, *rest, c: int = 2, d, **options):
        """Set up.

            Indented detail.
        """
        def inner():
            pass

        class Local:
            def m(self):
                pass
        return inner

    async def run(self, *, fast: bool):
        """\u00e9t\u00e9"""
        return (lambda x: x)(1)


def wrap(f):
    # comment
    pass

def trailing():
    if x:
        return 1
        # a trailing comment is not part of the body

# nor is a module comment
