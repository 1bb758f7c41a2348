raise E(code, f'{x} failed', 'third')
