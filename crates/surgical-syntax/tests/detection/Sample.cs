using System;
using System.Collections.Generic;

namespace Sample
{
    public class Account
    {
        private readonly List<decimal> _entries = new List<decimal>();

        public string Owner { get; }

        public Account(string owner)
        {
            Owner = owner;
        }

        public decimal Balance()
        {
            decimal total = 0;
            foreach (var entry in _entries)
            {
                total += entry;
            }
            return total;
        }

        public void Add(decimal amount)
        {
            if (amount == 0)
            {
                throw new ArgumentException("empty entry");
            }
            _entries.Add(amount);
        }

        public static void Main(string[] args)
        {
            var account = new Account("me");
            account.Add(10m);
            Console.WriteLine($"{account.Owner}: {account.Balance()}");
        }
    }
}
