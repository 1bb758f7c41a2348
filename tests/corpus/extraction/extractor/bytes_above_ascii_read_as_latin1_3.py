raise E(b'\u00e9')
