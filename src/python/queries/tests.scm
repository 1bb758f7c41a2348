; Tests that expect an exception (docs/analysis.md). Which calls count (`pytest.raises`,
; `self.assertRaises`, `self.assertRaisesRegex`, Django's `self.assertRaisesMessage`, SQLAlchemy's
; `expect_raises[_message]` and `assert_raises[_message]`, plain or as an attribute) is checked in code,
; from the imports of the file and the called name:
;   @expect.with   a with statement whose items may be such calls (the context-manager form)
; The call form (`pytest.raises(T, f, *args)`, `assert_raises_message(T, P, f, *args)`) is an expression
; statement: the @message_call patterns of sites.scm capture it.
(with_statement) @expect.with
