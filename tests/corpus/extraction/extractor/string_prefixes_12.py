raise E(BR'\n')
