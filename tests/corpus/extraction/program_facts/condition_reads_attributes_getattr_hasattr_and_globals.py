import os
DEBUG = False

class Trainer:
    def fit(self, model, items):
        limit = 3
        if self.trainer.state.stage == "fit" and not hasattr(model, "configure") and DEBUG:
            raise ValueError("a")
        if isinstance(model, Module) and len(items) > limit and os.environ.get("X"):
            raise ValueError("b")
        for item in items:
            if item.ready and getattr(self, name) and getattr(self, "flag", DEFAULT):
                raise ValueError("c")
        with open(self.path) as fh, lock:
            raise ValueError("d")
        if any(x.ok for x in items) or (lambda y: y.z)(model):
            raise ValueError("e")
        try:
            pass
        except (errors.Bad, OSError) as e:
            raise ValueError("f")

for entry in REGISTRY.entries:
    if entry.enabled and fn(entry, key=VALUE):
        raise ValueError("g")
