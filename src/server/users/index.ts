export { insertUsers, type NewUser } from './users.repository';
export { registerUserRoutes } from './users.routes';
export { createUsersService, type UsersService } from './users.service';
