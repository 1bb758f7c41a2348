raise E(f'{x:>{w}} end')
