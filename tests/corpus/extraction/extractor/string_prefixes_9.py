raise E(rb'\x00 raw')
