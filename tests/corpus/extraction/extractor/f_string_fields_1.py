raise E(f'bad {device}')
