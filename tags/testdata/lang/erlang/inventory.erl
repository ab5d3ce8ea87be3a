%% Stock counts per SKU.
-module(inventory).
-behaviour(gen_server).
-export([start_link/0, restock/2, total_value/1]).
-include("pricing.hrl").

-record(item, {sku :: binary(), count = 0 :: non_neg_integer(), cents = 0}).
-type stock() :: #{binary() => #item{}}.
-define(MAX_COUNT, 1000).

start_link() ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).

restock(Sku, N) ->
    gen_server:call(?MODULE, {restock, Sku, N}).

-spec total_value(stock()) -> integer().
total_value(Stock) ->
    pricing:format_cents(maps:fold(fun add_value/3, 0, Stock)).

add_value(_Sku, #item{count = C, cents = P}, Acc) when C > 0 ->
    Acc + min(C, ?MAX_COUNT) * P;
add_value(_Sku, _Item, Acc) ->
    Acc.

init([]) ->
    {ok, #{}}.

-callback handle_restock(binary(), integer()) -> ok.
