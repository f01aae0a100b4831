using OrderService;

await OrderServiceApp.Build(args).RunAsync();
