raise E(message='kw message')
