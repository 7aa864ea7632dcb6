import asyncio  # HELLO
