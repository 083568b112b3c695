from micrograd.engine import Value

weight_param = Value(-4.0)
bias_term = Value(2.0)
linear_combination = weight_param + bias_term
nonlinear_component = weight_param * bias_term + bias_term**3
linear_combination += linear_combination + 1
linear_combination += 1 + linear_combination + (-weight_param)
nonlinear_component += nonlinear_component * 2 + (bias_term + weight_param).relu()
nonlinear_component += 3 * nonlinear_component + (bias_term - weight_param).relu()
feature_difference = linear_combination - nonlinear_component
squared_error = feature_difference**2
loss_component = squared_error / 2.0
final_loss = loss_component + 10.0 / squared_error
print(f'{final_loss.data:.4f}') # prints 24.7041, the outcome of this forward pass
final_loss.backward()
print(f'{weight_param.grad:.4f}') # prints 138.8338, i.e. the numerical value of d(final_loss)/d(weight_param)
print(f'{bias_term.grad:.4f}') # prints 645.5773, i.e. the numerical value of d(final_loss)/d(bias_term)
