raise E(f'{x:{width}.{precision}}')
