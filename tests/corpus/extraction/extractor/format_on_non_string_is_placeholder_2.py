raise E(f'{x}'.format(a))
