def outer(option):
    cache = {}
    def inner():
        global STATE
        STATE = 1
        if STATE and cache and option:
            raise ValueError("x")
    return inner

def locals_of_every_kind(items):
    def helper(): pass
    class Local: pass
    print([(found := i) for i in items])
    import os.path as osp, json
    from typing import Final
    with open(items) as (fh, other):
        for (a, b) in items:
            try:
                del items
            except Exception as e:
                if helper and Local and found and osp and json and Final and fh and other and a and b and e and GLOBAL:
                    raise ValueError("y")
