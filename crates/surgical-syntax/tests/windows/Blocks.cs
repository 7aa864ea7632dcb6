using System;
using System.Collections.Generic;

namespace Sample.Blocks
{
    public class Ledger
    {
        private readonly List<decimal> _entries = new List<decimal>();

#if HAVE_NAMES
        private readonly Dictionary<string, int> _names = new Dictionary<string, int>();

        public int NameCount => _names.Count;
#endif

        public string Describe(int kind)
        {
            switch (kind)
            {
                case 0:
                    return "empty";
                case 1:
                    string one = "single";

                    if (_entries.Count > 1)
                    {
                        one = one + " of many";
                    }
                    return one;
                default:
                    throw new ArgumentOutOfRangeException(nameof(kind));
            }
        }

        public decimal Parse(string text)
        {
            try
            {
                return decimal.Parse(text);
            }
            catch (FormatException ex)
            {
                Console.WriteLine(ex.Message);

                return 0m;
            }
            finally
            {
                _entries.Add(0m);
            }
        }

        public string Sign(decimal amount)
        {
            if (amount > 0)
            {
                return "+";
            }
            else if (amount < 0)
            {
                return "-";
            }
            else
            {
#if DEBUG
                Console.WriteLine("zero");
#endif

                return "0";
            }
        }
    }
}
