raise E(Rb'\n')
