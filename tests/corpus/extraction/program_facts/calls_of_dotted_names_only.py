import os

class Base:
    def run(self):
        super().run()
        super(Base, self).setup(x=1)
        self.trainer.fit_loop.run( )
        self . helper()
        f()()
        x[0]()
        (a).b()
        items.append(lambda: go(1))
        return [cls.create(i) for i in range(3)]

os.path.join("a", "b")
