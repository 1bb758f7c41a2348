raise E(bR'\n')
