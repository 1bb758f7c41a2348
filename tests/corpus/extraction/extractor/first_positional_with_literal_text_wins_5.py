raise E(errno.ENOENT, os.strerror(errno.ENOENT), path)
