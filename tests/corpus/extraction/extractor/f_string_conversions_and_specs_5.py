raise E(f'{x=}')
