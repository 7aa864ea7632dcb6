require "json"

module Shop
  class Cart
    attr_reader :items

    def initialize(owner)
      @owner = owner
      @items = []
    end

    def add(name, price)
      raise ArgumentError, "no price" if price.nil?
      @items << { name: name, price: price }
      self
    end

    def total
      sum = 0
      @items.each do |item|
        sum += item[:price]
      end
      sum
    end

    def to_json(*args)
      if @items.empty?
        "{}"
      else
        { owner: @owner, items: @items }.to_json(*args)
      end
    end
  end
end

cart = Shop::Cart.new("me")
cart.add("pen", 2).add("ink", 5)
puts "total: #{cart.total}"
