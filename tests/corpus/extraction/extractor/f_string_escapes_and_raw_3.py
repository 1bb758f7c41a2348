raise E(fr'{x}\n')
