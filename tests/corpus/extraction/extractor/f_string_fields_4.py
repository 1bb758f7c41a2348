raise E(f"{obj.attr} {d['k']} {a[0]}")
