def h():
    raise E(later)
    later = "too late"
