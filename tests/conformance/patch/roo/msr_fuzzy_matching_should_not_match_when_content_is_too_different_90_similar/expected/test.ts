function processUsers(data) {
    return data.map(user => user.name);
}
