# frozen_string_literal: true

require "json"
require_relative "catalog/item"

module Shop
  MAX_SHELVES = 40

  module Auditing
    def audit(event)
      Logger.current.info("#{self.class.name}: #{event}")
    end
  end

  class Warehouse < Storage::Base
    include Auditing
    extend Forwardable
    include Comparable

    DEFAULT_NAME = "main"

    attr_reader :name

    def_delegators :@stock, :size, :empty?

    def self.open(name = DEFAULT_NAME)
      new(name).tap(&:load!)
    end

    def initialize(name)
      @name = name
      @stock = Hash.new(0)
    end

    def receive(item, qty)
      raise ArgumentError, "bad quantity" unless qty.positive?

      @stock[item.sku] += qty
      audit(:receive)
      Catalog::Item.touch(item)
    end

    def to_json(*args)
      { name: name, stock: @stock }.to_json(*args)
    end

    def <=>(other)
      size <=> other.size
    end

    class << self
      def registry
        @registry ||= Registry.new
      end
    end
  end
end

def default_warehouse
  Shop::Warehouse.open
end
