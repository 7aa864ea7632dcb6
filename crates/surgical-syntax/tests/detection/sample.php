<?php

namespace Sample;

class Registry
{
    private array $entries = [];

    public function __construct(private string $name)
    {
    }

    public function add(string $key, int $value): void
    {
        if ($value < 0) {
            throw new \InvalidArgumentException("negative value");
        }
        $this->entries[$key] = $value;
    }

    public function total(): int
    {
        $sum = 0;
        foreach ($this->entries as $key => $value) {
            $sum += $value;
        }
        return $sum;
    }
}

$registry = new Registry('main');
$registry->add('a', 1);
echo "total: " . $registry->total() . "\n";
$list = [1, 2, 3];
printf('%d items', count($list));
