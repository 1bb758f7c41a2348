; Tests that expect an exception (docs/analysis.md). Which calls count (`pytest.raises`,
; `self.assertRaises`, `self.assertRaisesRegex`) is checked in code, from the imports of the file:
;   @expect.with   a with statement whose items may be such calls (the context-manager form)
; The call form (`pytest.raises(T, f, *args)`) is an expression statement: the @message_call patterns of
; sites.scm capture it.
(with_statement) @expect.with
