from .models import User, Group as G
import json
import os.path as osp, xml.dom
from . import pkg
from .base import *

LIMIT = 10
a, b = 1, 2
type Vector = list[float]


@dataclass
class Account(Base, models.Mixin):
    kind = "x"

    def __init__(self, user):
        super().__init__()
        self.user = user
        osp.join(self.user.home)

    @property
    def name(self):
        return format_name(self.user).strip()

    @cache.memoize(timeout=5)
    def total(self):
        return sum(self.items)


@app.route("/")
def index():
    def inner():
        pass
    return Account(User())
