raise E(f'{x!r}')
