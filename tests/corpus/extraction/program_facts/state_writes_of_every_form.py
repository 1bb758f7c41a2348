import torch
LIMIT = 10
COUNT: int = 0
COUNT += 1
ONLY_ANNOTATED: int
a = b.c = torch.x = 1
first, (self_.x, *rest.y) = 1, (2, 3)
[p.q, r] = 4, 5
d["k"] = 1

class C:
    level = 1
    def __init__(self, trainer):
        self.trainer = trainer
        self.trainer.state.stage = "fit"
        self.count += 1
        self.value: int = 0
        self.other: int
        local = 3
        setattr(self, "dyn", 1)
        setattr(self, name, 1)
        delattr(self, "dyn")
        del self.trainer, self.x.y
        del local

def configure():
    global LIMIT
    LIMIT = 20
    COUNT = 5
    torch.backends.enabled = False
    del LIMIT
