raise E(f'{{}}')
