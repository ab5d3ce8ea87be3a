class Log:
    def __init__(self):
        self.lines = []
        self.seen = None

    def add(self, line):
        parts = {w: 1 for w in line.split()}
        self.lines.append(line)
        parts.get("a")
        name = "x"
        return name.upper()
