raise E(b'\xff\xe9')
