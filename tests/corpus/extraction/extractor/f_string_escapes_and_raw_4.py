raise E(f'\N{BULLET} {x}')
