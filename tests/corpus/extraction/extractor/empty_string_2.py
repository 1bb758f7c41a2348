raise E(f'')
