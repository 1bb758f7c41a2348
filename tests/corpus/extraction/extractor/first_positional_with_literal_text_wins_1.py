raise E(42, 'literal wins')
