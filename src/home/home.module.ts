import { Module } from '@nestjs/common';
import { HomeController } from './home.controller';

/** The front door at GET / and the guides it links (/guides/<file>). */
@Module({ controllers: [HomeController] })
export class HomeModule {}
