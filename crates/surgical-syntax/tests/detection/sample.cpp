#include <iostream>
#include <string>
#include <vector>

namespace shapes {

class Shape {
public:
    explicit Shape(std::string name) : name_(std::move(name)) {}
    virtual ~Shape() = default;
    virtual double area() const = 0;
    const std::string& name() const { return name_; }

private:
    std::string name_;
};

class Square : public Shape {
public:
    explicit Square(double side) : Shape("square"), side_(side) {}
    double area() const override { return side_ * side_; }

private:
    double side_;
};

}  // namespace shapes

int main() {
    std::vector<double> sides = {1.0, 2.0};
    for (double side : sides) {
        shapes::Square square(side);
        std::cout << square.name() << ": " << square.area() << "\n";
    }
    return 0;
}
