raise E(('a {}' + ' b {}').format(x, y))
