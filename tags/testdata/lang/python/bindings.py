import m.sub as ms
from .a import Foo


class C(Base):
    def __init__(self, n: Foo, k: ms.Bar = None, *, z: int):
        self.a = Foo()
        self.b = ms.Bar(n)
        x = Foo(1)
        y = ms.Bar()
        x.go()
        self.a.go()


g = Foo()
