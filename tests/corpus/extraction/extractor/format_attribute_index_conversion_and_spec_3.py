raise E('{k.x.y} {k[0][1]}'.format(k=kk))
