            self.console.print("[red]^C again to quit")
            self.io.tool_error("Malformed ORIGINAL/UPDATE blocks, retrying...")
            self.io.tool_error(err)
            self.console.print("[red]Unable to get commit message from gpt-3.5-turbo. Use /commit to try again.
")
            self.console.print("[red]Skipped commit.")
