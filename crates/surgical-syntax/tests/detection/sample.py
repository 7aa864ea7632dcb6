import json


class Ledger:
    """Entries by account."""

    def __init__(self, owner):
        self.owner = owner
        self.entries = []

    def add(self, account, amount):
        if amount == 0:
            raise ValueError("empty entry")
        entry = {"account": account, "amount": amount}
        self.entries.append(entry)
        return entry

    def total(self, account):
        total = 0
        for entry in self.entries:
            if entry["account"] == account:
                total += entry["amount"]
                print("counted", entry)
        return total


def dump(ledger, path):
    data = [e for e in ledger.entries]
    with open(path, "w") as out:
        json.dump(data, out)
        out.write("\n")
    return len(data)


if __name__ == "__main__":
    book = Ledger("me")
    book.add("cash", 10)
    print(book.total("cash"), dump(book, "/tmp/ledger.json"))
