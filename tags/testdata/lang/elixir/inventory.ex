defmodule Shop.Inventory do
  @moduledoc """
  Keeps stock counts. defmodule inside a string is not a definition.
  """
  alias Shop.Item
  import Shop.Pricing, only: [total: 1]
  defstruct items: %{}

  @type t :: %__MODULE__{items: map()}

  def add(%__MODULE__{items: items} = inv, %Item{sku: sku} = item) do
    %{inv | items: Map.put(items, sku, item)}
  end

  def value(inv), do: total(Map.values(inv.items))

  defp normalize(sku) when is_binary(sku) do
    String.upcase(sku)
  end

  defmacro with_stock(inv, do: block) do
    quote do
      unquote(block)
    end
  end
end

defprotocol Shop.Describable do
  def describe(thing)
end

defmodule Shop.OutOfStock do
  defexception message: "out of stock"
end

defmodule Shop.Store do
  @callback fetch(term()) :: {:ok, term()}
  defguard is_count(n) when is_integer(n) and n >= 0
end

defimpl Shop.Describable, for: Shop.Inventory do
  def describe(inv), do: inspect(inv)
end
