using Harness.LoadTests;

return await HarnessApp.RunAsync(args);
