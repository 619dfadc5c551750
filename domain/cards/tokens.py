"""Token cards that automated cards create (CR 111.4: the effect defines their characteristics)."""

from domain.cards.model import Card

#: Vault 12 chapter II, Screeching Scorchbeast: "2/2 black Zombie Mutant creature tokens".
ZOMBIE_MUTANT = Card(
    name="Zombie Mutant",
    type_line="Token Creature — Zombie Mutant",
    power="2",
    toughness="2",
    colors=("B",),
)
#: Hangarback Walker: "a 1/1 colorless Thopter artifact creature token with flying".
THOPTER = Card(
    name="Thopter",
    type_line="Token Artifact Creature — Thopter",
    power="1",
    toughness="1",
    oracle_text="Flying",
    colors=(),
)
#: Ajani Goldmane's −6: "a white Avatar creature token. It has "This token's power and
#: toughness are each equal to your life total."" (a characteristic-defining ability: */*).
AVATAR = Card(
    name="Avatar",
    type_line="Token Creature — Avatar",
    power="*",
    toughness="*",
    oracle_text="This token's power and toughness are each equal to your life total.",
    colors=("W",),
)
