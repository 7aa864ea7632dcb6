package sample;

import java.util.ArrayList;
import java.util.List;

public class Sample {
    private final List<String> names = new ArrayList<>();
    private int limit;

    public Sample(int limit) {
        this.limit = limit;
    }

    public boolean add(String name) {
        if (names.size() >= limit) {
            return false;
        }
        names.add(name);
        return true;
    }

    public String joined() {
        StringBuilder out = new StringBuilder();
        for (String name : names) {
            out.append(name).append(", ");
        }
        return out.toString();
    }

    public static void main(String[] args) {
        Sample s = new Sample(2);
        s.add("a");
        System.out.println("joined: " + s.joined());
        int[] values = {1, 2, 3};
        System.out.println(values.length);
    }
}
