raise E(b'\351')
