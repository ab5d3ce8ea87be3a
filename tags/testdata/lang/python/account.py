from .models import User, Group as G
import json

LIMIT = 10
a, b = 1, 2
type Vector = list[float]


@dataclass
class Account(Base, models.Mixin):
    kind = "x"

    def __init__(self, user):
        self.user = user

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
