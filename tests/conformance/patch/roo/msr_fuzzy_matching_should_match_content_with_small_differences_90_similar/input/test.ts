function getData() {
    const results = fetchData();
    return results.filter(Boolean);
}
