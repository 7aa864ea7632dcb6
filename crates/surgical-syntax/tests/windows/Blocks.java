package sample.blocks;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
  private final List<Integer> entries = new ArrayList<>();

  public String describe(int kind) {
    switch (kind) {
      case 0:
        return "empty";
      case 1:
        String one = "single";

        if (entries.size() > 1) {
          one = one + " of many";
        }
        return one;
      default:
        throw new IllegalArgumentException("kind " + kind);
    }
  }

  public int parse(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      System.out.println(e.getMessage());

      return 0;
    } finally {
      entries.add(0);
    }
  }

  public String sign(int amount) {
    if (amount > 0) {
      return "+";
    } else if (amount < 0) {
      return "-";
    } else {
      String zero = "0";

      return zero;
    }
  }
}
