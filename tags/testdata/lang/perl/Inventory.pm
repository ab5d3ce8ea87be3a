package Shop::Inventory;
# Stock counts per SKU.
use strict;
use warnings;
use List::Util qw(min sum);
use Shop::Pricing qw(format_cents);

our $VERSION = '1.02';
use constant MAX_COUNT => 1000;

sub new {
    my ($class, %args) = @_;
    my $self = { items => {}, %args };
    return bless $self, $class;
}

sub restock {
    my ($self, $sku, $n) = @_;
    my $have = $self->{items}{$sku} // 0;
    $self->{items}{$sku} = min($have + $n, MAX_COUNT);
    return $self->_log("restock $sku");
}

sub total_value {
    my ($self, %prices) = @_;
    return format_cents(sum(map { $self->{items}{$_} * $prices{$_} } keys %{ $self->{items} }));
}

1;
